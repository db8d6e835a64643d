/** Whether a key press goes into text the user is typing (so table shortcuts leave it alone); a checkbox is not typing. */
export function isTyping(target: EventTarget | null): boolean {
  if (target instanceof HTMLTextAreaElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['checkbox', 'radio', 'button'].includes(target.type);
}
