// `npm run format`: the layout the code was already written in (single quotes, semicolons,
// trailing commas, 2 spaces), with a width that keeps the long one-line calls and objects this
// code favours while breaking what ran past it (140 changed far fewer lines than 120).
export default {
  printWidth: 140,
  singleQuote: true,
  semi: true,
  trailingComma: 'all',
  tabWidth: 2,
};
