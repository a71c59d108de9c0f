/**
 * Work taken from one queue by `lanes` sessions side by side, each taking the next item as it
 * ends (the longest first, when the queue is ordered so, and the lanes end close together).
 * The first failure empties the queue; every lane settles before it is raised, so none is left
 * working on a table the caller drops next.
 */
export async function inLanes<T>(queue: T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  const lane = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      try {
        await work(item);
      } catch (error) {
        queue.length = 0;
        throw error;
      }
    }
  };
  const failed = (await Promise.allSettled(Array.from({ length: Math.max(1, lanes) }, lane))).find((result) => result.status === 'rejected');
  if (failed?.status === 'rejected') throw failed.reason;
}
