/** A stored uc setting: the request's fields, numbers as numbers, repeated fields as arrays. */
export type SettingValue = Record<string, string | number | string[]>;
