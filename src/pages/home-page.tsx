/** /abandonhome: 首页 (pinned, not cached). */
export function HomePage() {
  return <p>首页</p>;
}
