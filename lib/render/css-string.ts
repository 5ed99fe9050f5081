// A CSS string literal from any text, safe inside a <style> element: quotes
// and backslashes escaped, line breaks and "<" (which could close the
// element) written as code points.

export function cssString(text: string): string {
  const body = text.replace(/[\\"<>\n\r\f]/g, (c) => `\\${c.codePointAt(0)!.toString(16)} `);
  return `"${body}"`;
}
