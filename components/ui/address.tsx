// A repository address or path that may wrap after each "/" on a narrow
// screen, so it breaks between its parts rather than inside a word.
import { Fragment } from "react";

export function Address({ text }: { text: string }) {
  const parts = text.split("/");
  return <>{parts.map((p, i) => <Fragment key={i}>{p}{i < parts.length - 1 ? <>/<wbr /></> : null}</Fragment>)}</>;
}
