/** The answer shape of the signal lists (breakouts, tastemakers, ones-to-watch). */
import * as v from 'valibot';

export const listOf = <T extends v.GenericSchema>(item: T) => v.object({ as_of: v.nullable(v.string()), items: v.array(item) });
