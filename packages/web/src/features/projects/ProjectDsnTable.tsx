import type { ProjectResponse } from '@lantern/shared';
import { Box, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { CopyButton } from '../../components/CopyButton';

/** Spec §2.4: the 'Project DSN' table, Transport | DSN, one row per OTLP transport. */
export function ProjectDsnTable({ project }: { project: ProjectResponse }) {
  const rows = [
    { transport: 'OTLP/HTTP', key: 'http', dsn: project.http.dsn },
    { transport: 'OTLP/gRPC', key: 'grpc', dsn: project.grpc.dsn },
  ];
  return (
    <Table size="small" data-testid="project-dsn-table">
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: 140 }}>Transport</TableCell>
          <TableCell>DSN</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.key} data-testid={`dsn-row-${row.key}`}>
            <TableCell>{row.transport}</TableCell>
            <TableCell>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Box
                  component="code"
                  sx={{ fontFamily: 'ui-monospace, monospace', wordBreak: 'break-all' }}
                  data-testid={`dsn-${row.key}`}
                >
                  {row.dsn}
                </Box>
                <CopyButton text={row.dsn} title={`Copy the ${row.transport} DSN`} testId={`copy-dsn-${row.key}`} />
              </Box>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
