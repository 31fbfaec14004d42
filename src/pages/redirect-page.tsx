export function RedirectPage() {
  return null;
}
