export function EnterBugPage(_props: any) {
  return <h1>EnterBugPage</h1>;
}
