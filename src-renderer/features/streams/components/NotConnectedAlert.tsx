import { Alert } from '@mantine/core';
import { NOT_CONNECTED_MESSAGE } from '@renderer/api/transport-websocket';

/** Said in the form itself, next to the button that cannot work now, not only in the page banner. */
export function NotConnectedAlert() {
  return (
    <Alert color="red" title="Not connected to the relay" data-testid="form-not-connected">
      {NOT_CONNECTED_MESSAGE.replace(/^Not connected to the relay: /, '').replace(/^your/, 'Your')} Try again once the relay is back.
    </Alert>
  );
}
