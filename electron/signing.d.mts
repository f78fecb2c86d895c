export function signingReport(env: Record<string, string | undefined>): string[];
