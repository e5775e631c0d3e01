export function AttachmentPage(_props: any) {
  return <h1>AttachmentPage</h1>;
}
