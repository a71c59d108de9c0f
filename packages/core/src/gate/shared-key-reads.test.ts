import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import type { Accounts, CallOptions, KeyWithCustomer } from '../ports/index.js';
import { SharedKeyReads } from './shared-key-reads.js';

const ROW = { key: { hash: 'h1' } } as unknown as KeyWithCustomer;

/** Accounts whose key reads are answered by hand, in order. */
function manualAccounts() {
  const calls: Array<{ hash: string; lifetime: CallOptions | undefined; answer: (row: KeyWithCustomer | null) => void; fail: (error: unknown) => void }> = [];
  const accounts = {
    findKeyByHash: (hash: string, lifetime?: CallOptions) =>
      new Promise<KeyWithCustomer | null>((answer, fail) => {
        calls.push({ hash, lifetime, answer, fail });
      }),
  } as unknown as Accounts;
  return { accounts, calls };
}

const live = (): { aborted: boolean } => ({ aborted: false });

describe('SharedKeyReads', () => {
  it('the shared read counts as ended only once every waiter has', async () => {
    const { accounts, calls } = manualAccounts();
    const reads = new SharedKeyReads();
    const [a, b] = [live(), live()];
    const first = reads.read(accounts, 'h1', a, null);
    const second = reads.read(accounts, 'h1', b, null);
    expect(calls).toHaveLength(1);
    const shared = calls[0]?.lifetime as { aborted: boolean };
    a.aborted = true;
    expect(shared.aborted).toBe(false);
    b.aborted = true;
    expect(shared.aborted).toBe(true);
    calls[0]?.answer(ROW);
    await expect(first).rejects.toMatchObject({ code: 'request_aborted' });
    await expect(second).rejects.toMatchObject({ code: 'request_aborted' });
  });

  it('a read refused as ended while a joined waiter goes on is made again for it', async () => {
    const { accounts, calls } = manualAccounts();
    const reads = new SharedKeyReads();
    const first = reads.read(accounts, 'h1', live(), null);
    const joined = reads.read(accounts, 'h1', live(), null);
    calls[0]?.fail(new ApiError('request_aborted'));
    await expect(first).rejects.toMatchObject({ code: 'request_aborted' });
    await new Promise((r) => setImmediate(r));
    expect(calls).toHaveLength(2);
    calls[1]?.answer(ROW);
    await expect(joined).resolves.toEqual({ found: ROW, epochBefore: null, joined: false });
  });

  it('a request already over starts no read', async () => {
    const { accounts, calls } = manualAccounts();
    await expect(new SharedKeyReads().read(accounts, 'h1', { aborted: true }, null)).rejects.toMatchObject({ code: 'request_aborted' });
    expect(calls).toHaveLength(0);
  });

  it('joins only a read started under the same epoch; the older one stays to its own waiters', async () => {
    const { accounts, calls } = manualAccounts();
    const reads = new SharedKeyReads();
    const older = reads.read(accounts, 'h1', live(), 'e1');
    const newer = reads.read(accounts, 'h1', live(), 'e2');
    const joined = reads.read(accounts, 'h1', live(), 'e2');
    expect(calls).toHaveLength(2);
    calls[1]?.answer(ROW);
    calls[0]?.answer(null);
    await expect(older).resolves.toEqual({ found: null, epochBefore: 'e1', joined: false });
    await expect(newer).resolves.toEqual({ found: ROW, epochBefore: 'e2', joined: false });
    await expect(joined).resolves.toEqual({ found: ROW, epochBefore: 'e2', joined: true });
  });
});
