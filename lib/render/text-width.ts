// Text widths for the SVG charts, from Inter's advance widths (the font the
// app sets; @fontsource/inter latin, 400 and 600). Charts use <text>, so a
// browser lays the text out; these widths decide what fits and where labels
// go. Kerning is ignored, so callers keep a few pixels of slack.

/** Advance widths in 1/1000 em for U+0020..U+007E, read from inter-latin-{400,600}-normal.woff. */
const ASCII_WIDTHS = {
  400: [
    281, 288, 466, 633, 642, 982, 644, 300, 365, 365, 501, 662, 288, 460, 288, 360, 631, 407, 610, 618, 646, 593, 620, 566,
    619, 620, 288, 302, 662, 662, 662, 511, 966, 690, 654, 730, 722, 601, 590, 746, 743, 269, 571, 672, 565, 903, 753, 765,
    639, 765, 644, 642, 646, 744, 690, 985, 682, 679, 629, 365, 360, 365, 471, 456, 323, 562, 612, 571, 612, 583, 370, 613,
    591, 242, 242, 549, 242, 876, 591, 600, 612, 612, 376, 528, 327, 591, 562, 818, 546, 562, 552, 426, 333, 426, 662,
  ],
  600: [
    252, 321, 523, 644, 650, 1004, 663, 326, 373, 373, 540, 673, 319, 465, 319, 379, 660, 423, 623, 636, 666, 612, 640, 576,
    640, 640, 319, 329, 673, 673, 673, 543, 999, 728, 659, 737, 722, 605, 588, 749, 746, 277, 580, 703, 565, 922, 759, 769,
    645, 773, 652, 650, 660, 736, 728, 1020, 720, 713, 652, 373, 379, 373, 481, 469, 351, 574, 624, 583, 624, 591, 389, 625,
    612, 262, 262, 569, 262, 900, 612, 609, 624, 624, 397, 549, 353, 612, 587, 839, 569, 588, 566, 455, 359, 455, 673,
  ],
} as const satisfies Record<number, readonly number[]>;

/** A few non-ASCII characters the charts print themselves. */
const EXTRA_WIDTHS: Record<string, { 400: number; 600: number }> = {
  "·": { 400: 288, 600: 319 },
  "…": { 400: 864, 600: 956 },
  "→": { 400: 800, 600: 820 },
  "–": { 400: 500, 600: 500 },
  "—": { 400: 1000, 600: 1000 },
};

export type FontWeight = 400 | 600;

function charWidth(char: string, weight: FontWeight): number {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0x20 && code <= 0x7e) return ASCII_WIDTHS[weight][code - 0x20] ?? 600;
  const extra = EXTRA_WIDTHS[char];
  if (extra !== undefined) return extra[weight];
  // Wide scripts (CJK, emoji) take about a full em; other letters about 0.65 em.
  return code >= 0x2e80 ? 1000 : 650;
}

/** Width in px of `text` set in Inter at `fontSize` px. */
export function measureText(text: string, fontSize: number, weight: FontWeight = 400): number {
  let units = 0;
  for (const char of text) units += charWidth(char, weight);
  return (units * fontSize) / 1000;
}

/** `text`, or its longest prefix ending in "…" that fits `maxWidth`; "" when not even "…" fits. */
export function truncateToWidth(text: string, maxWidth: number, fontSize: number, weight: FontWeight = 400): string {
  if (measureText(text, fontSize, weight) <= maxWidth) return text;
  const ellipsis = measureText("…", fontSize, weight);
  if (ellipsis > maxWidth) return "";
  const chars = Array.from(text);
  let width = ellipsis;
  let end = 0;
  while (end < chars.length) {
    const next = measureText(chars[end] ?? "", fontSize, weight);
    if (width + next > maxWidth) break;
    width += next;
    end++;
  }
  return `${chars.slice(0, end).join("").trimEnd()}…`;
}
