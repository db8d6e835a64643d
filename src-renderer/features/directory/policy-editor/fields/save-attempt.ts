import { createContext, useContext } from 'react';

/**
 * Whether the person has tried to save this form: from then on every problem shows, touched
 * or not. Kept by the form itself (react-hook-form's submit count does not re-render the
 * fields that read it).
 */
export const SaveAttemptContext = createContext(false);

export const useSaveAttempted = (): boolean => useContext(SaveAttemptContext);
