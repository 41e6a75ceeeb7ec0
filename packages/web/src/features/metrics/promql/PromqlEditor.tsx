import { Prec } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { PromQLExtension } from '@prometheus-io/codemirror-promql';
import { Box } from '@mui/material';
import CodeMirror from '@uiw/react-codemirror';
import { useMemo } from 'react';
import { promqlBaseUrl } from './promqlApi';

/**
 * The PromQL editor: Prometheus's own CodeMirror language (highlighting, the parser's errors as
 * lint, completion of functions, metric names, labels and values from Lantern's Prometheus API).
 * Enter or Shift+Enter runs the query (a query is one line); the caller owns the text and passes a
 * stable `onRun`.
 */
export function PromqlEditor({
  projectId,
  value,
  onChange,
  onRun,
}: {
  projectId: number;
  value: string;
  onChange: (v: string) => void;
  onRun: (v: string) => void;
}) {
  // The language (and its completion cache) lives as long as the project; the keys follow `onRun`
  // (callers pass a stable one).
  const language = useMemo(
    () =>
      new PromQLExtension()
        .setComplete({
          remote: { url: promqlBaseUrl(projectId), httpMethod: 'GET', lookbackInterval: 24 * 3600 * 1000 },
        })
        .asExtension(),
    [projectId],
  );
  const extensions = useMemo(() => {
    const submit = (view: EditorView) => {
      onRun(view.state.doc.toString());
      return true;
    };
    return [
      language,
      EditorView.lineWrapping,
      placeholder('rate(http_server_duration_count[5m])'),
      Prec.high(
        keymap.of([
          { key: 'Enter', run: submit },
          { key: 'Shift-Enter', run: submit },
        ]),
      ),
    ];
  }, [language, onRun]);

  return (
    <Box
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden', flex: 1, minWidth: 0 }}
      data-testid="promql-editor"
    >
      <CodeMirror
        value={value}
        onChange={onChange}
        extensions={extensions}
        basicSetup={{ lineNumbers: false, foldGutter: false, highlightActiveLine: false }}
        aria-label="PromQL query"
      />
    </Box>
  );
}
