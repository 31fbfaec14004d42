/** The engine's generic form (dialog and full-page variants). */
export {
  COMPRESS_QUALITY,
  COMPRESS_THRESHOLD_BYTES,
  COMPRESS_WIDTH,
  compressedSize,
  compressImage,
  needsCompression,
  nextSize,
} from './compress';
export { DEFAULT_INPUT_WIDTH, DEFAULT_LABEL_WIDTH, EngineForm } from './engine-form';
export { FormPage, SUBMIT_SUCCESS } from './form-page';
export {
  GENERAL_UPLOAD_MESSAGE,
  OPTION_LABEL_MAX,
  parseFiles,
  type StoredFile,
  TOO_MANY_FILES_MESSAGE,
  truncateLabel,
  uploadTypeMessage,
} from './labels';
export { blockingProblems, queryValues } from './page-query';
export { buildPayload, editableValues, type FieldState, type FormValues, fieldStates, formatDateTime } from './payload';
export { fieldErrors, zodResolver } from './resolver';
