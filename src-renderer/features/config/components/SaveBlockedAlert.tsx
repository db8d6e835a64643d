import { Alert } from '@mantine/core';

/** Why a save did not go through (a conflict, a file that does not validate), until dismissed. */
export function SaveBlockedAlert({ message, onDismiss }: { message: string | undefined; onDismiss: () => void }) {
  if (!message) return null;
  return (
    <Alert color="orange" withCloseButton onClose={onDismiss} closeButtonLabel="Dismiss" data-testid="save-blocked">
      {message}
    </Alert>
  );
}
