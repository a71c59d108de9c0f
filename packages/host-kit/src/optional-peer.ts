/**
 * The adapters are optional peers of host-kit (package.json peerDependenciesMeta): installing
 * @catalogue/core and the one adapter a deployment uses pulls neither PGlite nor Stripe nor
 * nodemailer nor ioredis. Each is imported when the configuration asks for it; one that is not
 * installed stops the start with the variable that wanted it and the package to install.
 */

/** `load()`, or an error naming `neededFor` and the missing one of `packages` when it is not installed. */
export async function optionalPeer<T>(packages: readonly string[], neededFor: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = packages.find((name) => isMissing(error, name));
    if (!missing) throw error;
    throw new Error(`${neededFor} needs ${missing}, an optional peer dependency that is not installed: npm install ${missing}`, { cause: error });
  }
}

/** Node (ERR_MODULE_NOT_FOUND), Bun and Deno each word a missing package their own way; all name it. */
function isMissing(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /cannot find|could not (find|resolve)|not found/i.test(error.message);
  return (
    notFound &&
    (error.message.includes(`'${name}'`) || error.message.includes(`"${name}"`) || error.message.includes(` ${name} `) || error.message.endsWith(name))
  );
}
