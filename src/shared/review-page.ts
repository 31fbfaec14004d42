/**
 * The review page's wire: what `wastegen review` hands review.html and what the page answers. The
 * page (src/review) and the CLI (cli/review) both read it from here.
 */

/** The fixed clock of every review picture: 2026-06-15 09:30 in China. */
export const REVIEW_CLOCK = Date.UTC(2026, 5, 15, 1, 30, 0);

/** What to draw: a view's list or full-page form, or a screen; with every definition it may open. */
export interface ReviewRenderInput {
  kind: 'view' | 'screen';
  id: number;
  page: 'list' | 'form' | 'screen';
  /** Definitions by id, as the server answers them. */
  views: Record<string, unknown>;
  screens: Record<string, unknown>;
}

/** A dialog a reviewer opens from a list: 新增, a row's 编辑 (first or second row) or 查看. */
export type ReviewDialogAction = 'add' | 'edit' | 'edit-other' | 'look';

export type ReviewCheckName =
  | 'column-under-operation'
  | 'form-wider-than-dialog'
  | 'label-cut-off'
  | 'bare-id'
  | 'chart-axis-labels'
  | 'dialog-taller-than-viewport';

export interface ReviewWarning {
  check: ReviewCheckName;
  /** The field's label, the column's title, the dialog's or the chart's title. */
  field: string;
  message: string;
}

/** Where the page was drawn; some checks hold only at a width (the 操作 column at 1366 px). */
export interface ReviewCheckContext {
  width: number;
  height: number;
}

/** `window.wastegenReview`, set by review.html. */
export interface ReviewApi {
  render(input: ReviewRenderInput): Promise<{ title: string }>;
  /** Opens the dialog by clicking its button as a user would; false when the page has no such button. */
  open(action: ReviewDialogAction): Promise<boolean>;
  /** Closes every open dialog by its close button. */
  close(): Promise<void>;
  /** Resolves once the page drawn now is complete and still. */
  settle(): Promise<void>;
  check(ctx: ReviewCheckContext): Promise<ReviewWarning[]>;
  /** What went wrong while drawing since the last call (a state that never became complete). */
  notes(): string[];
}
