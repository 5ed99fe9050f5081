export * from "./settings";
export * from "./decide";
export * from "./image-version";
export * from "./pipeline";
