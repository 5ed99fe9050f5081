/** An image and the tag names its registry lists. */
export type ImageTags = { readonly image: string; readonly tags: readonly string[] };
