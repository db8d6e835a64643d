/** The parts of a key press's target that tell whether it takes text. */
interface KeyTarget {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
}

// Inputs that take a click or a choice, not text: a letter key pressed on them is free for a shortcut.
const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/**
 * Whether a key press goes into text the user is typing (so single-key shortcuts leave it alone):
 * text inputs, text areas, selects and editable content (the config editor is one).
 */
export function isTyping(target: unknown): boolean {
  if (!target || typeof target !== 'object') return false;
  const { tagName, type, isContentEditable } = target as KeyTarget;
  if (isContentEditable) return true;
  const tag = tagName?.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  return !NOT_TEXT.has((type || 'text').toLowerCase());
}
