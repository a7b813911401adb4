#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A read-only FUSE file system whose reads never answer: what a network
file system whose server went away looks like to a process reading it.

  stallfs.py SOURCE_DIR MOUNTPOINT [SECONDS]

Every regular file of SOURCE_DIR appears at the mount point with its own
size and mode; lookups, getattr and open answer at once, a read of any
file waits forever, or with SECONDS, until SECONDS after the start (the
server back), and then reads the file.  Runs in the foreground until
unmounted or killed.
"""
import errno
import os
import sys
import threading
import time

from fusepy import FUSE, FuseOSError, Operations


class StallFS(Operations):
    def __init__(self, src, seconds=None):
        self.src = src
        self.never = threading.Event()
        self.back = None if seconds is None else time.monotonic() + seconds

    def _path(self, path):
        return os.path.join(self.src, path.lstrip('/'))

    def getattr(self, path, fh=None):
        try:
            st = os.lstat(self._path(path))
        except OSError as e:
            raise FuseOSError(e.errno)
        keys = ('st_mode', 'st_size', 'st_nlink', 'st_uid', 'st_gid',
                'st_atime', 'st_mtime', 'st_ctime')
        return {k: getattr(st, k) for k in keys}

    def readdir(self, path, fh):
        return ['.', '..'] + os.listdir(self._path(path))

    def open(self, path, flags):
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise FuseOSError(errno.EROFS)
        return 0

    def read(self, path, size, offset, fh):
        if self.back is None:
            self.never.wait()      # the server went away
            raise FuseOSError(errno.EIO)
        self.never.wait(max(0.0, self.back - time.monotonic()))
        with open(self._path(path), 'rb') as f:
            f.seek(offset)
            return f.read(size)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    seconds = float(sys.argv[3]) if len(sys.argv) == 4 else None
    FUSE(StallFS(sys.argv[1], seconds), sys.argv[2], foreground=True, ro=True,
         nothreads=False, allow_other=False)


if __name__ == '__main__':
    main()
