export function SearchPage(_props: any) {
  return <h1>SearchPage</h1>;
}
