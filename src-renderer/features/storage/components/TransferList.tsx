import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { TransferStatus } from '@shared/contract/transfers';
import { needsFile } from '../model/resume-upload';
import { TransferRow, type TransferAction } from './TransferRow';

const ROW_HEIGHT = 78;

/** Thousands of transfers (a dropped folder) stay smooth: only the rows in view are drawn. */
export interface TransferListProps {
  transfers: TransferStatus[];
  onAction(id: string, action: TransferAction): void;
  saveUrlOf?(id: string): string;
  /** Uploads whose file this page holds; those being read without one need it chosen again. */
  held: ReadonlySet<string>;
  onChooseAgain(transfer: TransferStatus, file: File): void;
  /** The upload whose file chosen again is being handed over. */
  choosingId?: string | undefined;
}

export function TransferList({ transfers, onAction, saveUrlOf, held, onChooseAgain, choosingId }: TransferListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: transfers.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  return (
    <div ref={scroller} className="transfer-list" role="list" aria-label="Transfers" tabIndex={-1}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const transfer = transfers[item.index]!;
          return (
            <div
              key={transfer.id}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
            >
              <TransferRow
                transfer={transfer}
                onAction={(action) => onAction(transfer.id, action)}
                saveUrl={saveUrlOf?.(transfer.id)}
                needsFile={needsFile(transfer, held)}
                onChooseAgain={(file) => onChooseAgain(transfer, file)}
                choosing={choosingId === transfer.id}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}
