/** Select options from value → label, in the order written (values that read as whole numbers would sort first). */
export const choices = (labels: Readonly<Record<string, string>>): { value: string; label: string }[] =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));
