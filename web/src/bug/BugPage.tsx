export function BugPage(_props: any) {
  return <h1>BugPage</h1>;
}
