// Types of gen-api-types.mjs for the TypeScript test that imports it.
export declare const defaultProtoDir: string;
export declare const defaultOutput: string;
export declare function jsonName(fieldName: string): string;
export declare function generateApiTypes(protoDir?: string): string;
