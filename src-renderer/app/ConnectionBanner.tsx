import { Alert } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { disconnectedMessage } from './connection';
import { useUi } from './ui-store-context';

/**
 * Across the top of every page while main is out of reach: nothing the user does then is sent,
 * and a small dot in the sidebar is easy to miss.
 */
export function ConnectionBanner() {
  const since = useUi((s) => s.link.disconnectedSince);
  if (since === undefined) return null;
  // Sticky, so it stays in view on a long page; above the page's own content, below dialogs.
  return (
    <Alert
      color="red"
      variant="filled"
      pos="sticky"
      top={0}
      mb="md"
      style={{ zIndex: 100 }}
      icon={<IconPlugConnectedX size={18} />}
      data-testid="disconnected-banner"
      title={disconnectedMessage(since)}
    >
      Changes made now are not sent to the relay, and will not be sent later: make them again once it is back.
    </Alert>
  );
}
