/** Go's texts for the file errors a user can fix, instead of Node's errno dump. */
export const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
};
