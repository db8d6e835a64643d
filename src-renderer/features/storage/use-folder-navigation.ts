import { useCallback, useEffect, useState } from 'react';
import { useUi } from '../../app/ui-store-context';
import { backOf, emptyHistory, forwardOf, visit } from './model/folder-history';
import { parentFolder, parseAddress, printAddress, type FolderLocation } from './model/kodo-address';

/** Where the bucket browser can go from a folder: anywhere by address, back, forward and up. */
export function useFolderNavigation(accountId: string, bucket: string, prefix: string) {
  const navigate = useUi((s) => s.navigate);
  const [history, setHistory] = useState(emptyHistory);
  const address = printAddress({ bucket, prefix });

  const go = useCallback(
    (location: FolderLocation) => navigate({ section: 'storage', account: accountId, bucket: location.bucket, prefix: location.prefix }),
    [navigate, accountId],
  );
  /** History holds printed addresses; they parse back to the folder they name. */
  const goAddress = (text: string) => {
    const location = parseAddress(text);
    if (!('error' in location)) go(location);
  };
  useEffect(() => setHistory((h) => visit(h, address)), [address]);

  return { address, go, goAddress, back: backOf(history), forward: forwardOf(history), up: parentFolder(prefix) };
}
