export function PrefsPage(_props: any) {
  return <h1>PrefsPage</h1>;
}
