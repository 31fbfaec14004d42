/** A field of a view definition's tableOption as the server stores it (wire format), for tests and benches. */
export const field = (name: string, chName: string, dataType: string, configure: Record<string, unknown> = {}) => ({
  name,
  chName,
  dataType,
  linked: false,
  configure,
});
