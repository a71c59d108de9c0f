/** The answer shape of the signal lists (breakouts, tastemakers, ones-to-watch), each a named OpenAPI component. */
import * as v from 'valibot';
import { named } from '../../schemas/named.js';

export const listOf = <T extends v.GenericSchema>(name: string, item: T) => named(name, v.object({ as_of: v.nullable(v.string()), items: v.array(item) }));
