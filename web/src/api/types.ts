// The API's JSON types, generated from the protos (types.gen.ts).
export * from './types.gen';
