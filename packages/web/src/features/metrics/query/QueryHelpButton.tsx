import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { EXAMPLES } from './queryHelp';

/** The query builder's help: the parts a metrics query is made of, each with an example (reference query §3). */
export function QueryHelpButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" startIcon={<HelpOutlineIcon />} onClick={() => setOpen(true)} data-testid="query-help">
        Help
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" fullWidth data-testid="query-help-dialog">
        <DialogTitle>Metrics query</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 2 }}>
            A query is parts separated by <code>|</code>: aggregations of the picked metrics (named by their{' '}
            <code>$alias</code>), filters and groupings. Each chip is one part; its error, if any, shows under it.
          </Typography>
          <Table size="small">
            <TableBody>
              {EXAMPLES.map(([q, text]) => (
                <TableRow key={q}>
                  <TableCell>
                    <Box component="code" sx={{ fontFamily: 'ui-monospace, monospace', whiteSpace: 'nowrap' }}>
                      {q}
                    </Box>
                  </TableCell>
                  <TableCell>{text}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
