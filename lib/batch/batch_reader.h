/* A source of input bytes read in pieces: a stream (stdin, a FIFO), a
 * decompressed file, an archive member. The batch driver parses what a
 * reader gives as it arrives; each kind of source is one implementation
 * in a file of its own. Not installed. */
#ifndef ADEXP_BATCH_READER_H
#define ADEXP_BATCH_READER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct batch_reader batch_reader;
struct batch_reader {
    /* Reads up to cap bytes into buf: the count, 0 at the end of the
     * input, -1 on failure (then error says why, with the byte offset
     * where that is known). May block until bytes arrive. */
    ssize_t (*read)(batch_reader *r, char *buf, size_t cap);
    /* Releases the reader's resources (not r itself). May be NULL. */
    void (*close)(batch_reader *r);
    /* The compressed bytes taken in so far, for the progress line; NULL
     * when the reader does not know them. */
    uint64_t (*packed)(batch_reader *r);
    /* 1 if no byte arrives within ms milliseconds (the input is idle), 0
     * if some may be read at once; NULL when the reader cannot tell. */
    int (*idle)(batch_reader *r, int ms);
    char error[256];
};

#endif
