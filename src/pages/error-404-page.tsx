export function Error404Page() {
  return <p>404</p>;
}
