export function checkCatalogues(dir?: string): Promise<string[]>;
export function checkUsage(dir?: string): Promise<string[]>;
