/** The rules of a required text of at most `max` characters: blanks alone do not count as an answer. */
export const requiredText = (required: string, max: number, tooLong: string) => [
  { required: true, whitespace: true, message: required },
  { max, message: tooLong },
];
