// The package's entry point: the client and every generated type.
export * from "./client.js";
export { GAMES } from "./generated/games.js";
export type * from "./generated/games.js";
export type { components, operations, paths } from "./generated/openapi.js";
