/** A form inside a dialog: labels of one width, no browser autofill, a gap below the dialog's title. */
export const dialogFormLayout = (labelWidth: number) =>
  ({ labelCol: { flex: `${labelWidth}px` }, autoComplete: 'off', style: { marginTop: 16 } }) as const;
