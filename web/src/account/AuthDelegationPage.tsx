export function AuthDelegationPage(_props: any) {
  return <h1>AuthDelegationPage</h1>;
}
