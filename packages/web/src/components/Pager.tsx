import { Box, Pagination, Typography } from '@mui/material';
import { useState } from 'react';
import { pagerWindow } from './pagerWindow';

/** Client-side paging state (spec §9: page size per table, at most 1000 pages). */
export interface PagerState {
  page: number;
  setPage: (p: number) => void;
  perPage: number;
  total: number;
  pages: number;
  start: number;
  end: number;
}

export function usePager(total: number, perPage = 10): PagerState {
  const [page, setPage] = useState(1);
  const win = pagerWindow(page, perPage, total);
  // Back to the last page when the list shrinks under the current one (while rendering, so the page
  // shown and the page kept never differ).
  if (win.page !== page) setPage(win.page);
  return { page: win.page, setPage, perPage, total, pages: win.pages, start: win.start, end: win.end };
}

/** 'start - end of total' and page links, about 7 visible (spec §9). */
export function Pager({ pager, testId = 'pager' }: { pager: PagerState; testId?: string }) {
  if (pager.total === 0) return null;
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 2, py: 1, px: 2 }}
      data-testid={testId}
    >
      {/* Never squeezed or wrapped by the page links, nor flush against the card's edge. */}
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        data-testid={`${testId}-text`}
      >
        {pager.start + 1} - {pager.end} of {pager.total}
      </Typography>
      {pager.pages > 1 && (
        <Pagination
          size="small"
          count={pager.pages}
          page={pager.page}
          siblingCount={2}
          boundaryCount={1}
          onChange={(_e, p) => pager.setPage(p)}
        />
      )}
    </Box>
  );
}
