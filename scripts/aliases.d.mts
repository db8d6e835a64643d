export const ALIAS_FOLDERS: Readonly<Record<'@main' | '@renderer' | '@shared', string>>;
export function viteAliases(): Array<{ find: string; replacement: string }>;
