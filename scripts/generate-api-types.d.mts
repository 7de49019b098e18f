/** Where the generated types are written. */
export declare const API_TYPES_FILE: string;
/** The text of dashboard/src/api-types.ts for an OpenAPI document. */
export declare function renderApiTypes(document: object): Promise<string>;
