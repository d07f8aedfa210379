//! A text's line starts, found once: the line and column of many byte
//! offsets of one text without counting from its start for each
//! ([`crate::markdown::line_col`] counts, which is quadratic when a
//! chapter of many blocks asks for every block).

use std::ops::Range;

/// Where each line of a text starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// The byte offset of each line's first byte: 0, then one past each
    /// `\n`.
    starts: Vec<usize>,
    /// The text's length (the start of the line past its last).
    len: usize,
}

impl LineIndex {
    /// The index of `text`.
    pub fn new(text: &str) -> LineIndex {
        let starts = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
            .collect();
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// The 0-based line of the byte at `offset` (an offset past the end
    /// is on the last line), as [`crate::markdown::line_col`] counts.
    pub fn line0(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// The byte offset where 0-based `line` starts (the text's end past
    /// its last line).
    pub fn start(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(self.len)
    }

    /// The bytes of 0-based `line`, its `\n` included.
    pub fn range(&self, line: usize) -> Range<usize> {
        self.start(line)..self.start(line + 1)
    }

    /// 1-based line and column (in characters) of a byte offset of
    /// `text`, the text this index was made of: what
    /// [`crate::markdown::line_col`] says, without counting from the start.
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.line0(offset);
        match text.get(self.start(line)..offset) {
            Some(before) => (line + 1, before.chars().count() + 1),
            // Not on a character boundary: as the count says it.
            None => crate::markdown::line_col(text, offset),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every offset of texts with empty lines, CRLF, multi-byte
    /// characters and no final newline: the index says what counting
    /// says.
    #[test]
    fn the_index_agrees_with_counting_at_every_offset() {
        for text in ["", "\n", "a", "ab\nüx\n", "\n\nx\r\ny", "é\nß\n\n€z"] {
            let index = LineIndex::new(text);
            for offset in 0..=text.len() + 2 {
                assert_eq!(
                    index.line_col(text, offset),
                    crate::markdown::line_col(text, offset),
                    "{text:?} at {offset}"
                );
            }
        }
        let index = LineIndex::new("ab\ncd\n");
        assert_eq!((index.start(1), index.start(2), index.start(9)), (3, 6, 6));
        assert_eq!(index.range(0), 0..3);
    }
}
