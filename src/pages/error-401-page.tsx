export function Error401Page() {
  return <p>你没有权限去该页面</p>;
}
