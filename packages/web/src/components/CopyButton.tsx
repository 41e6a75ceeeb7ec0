import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Button, IconButton, Tooltip } from '@mui/material';
import { useEffect, useState } from 'react';

/** Spec §9: the check icon shows for 2 seconds after copying. */
export const COPY_FEEDBACK_MS = 2000;

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Plain-http deployments (not localhost) have no Clipboard API; the old selection trick still works.
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/** An icon button by default; with `label`, a small outlined button that reads it (and 'Copied'). */
export function CopyButton({
  text,
  title = 'Copy',
  testId,
  label,
}: {
  text: string;
  title?: string;
  testId?: string;
  label?: string;
}) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  // copy() handles its own failure, so a click can drop the promise.
  const copy = async () => {
    try {
      await writeClipboard(text);
      setCopied(true);
    } catch {
      // Leave the copy icon: the user sees nothing happened and can select the text by hand.
    }
  };

  const icon = copied ? <CheckIcon fontSize="small" color="success" /> : <ContentCopyIcon fontSize="small" />;
  if (label !== undefined) {
    return (
      <Tooltip title={title}>
        <Button
          size="small"
          variant="outlined"
          startIcon={icon}
          onClick={() => void copy()}
          data-testid={testId ?? 'copy-button'}
          data-copied={copied || undefined}
        >
          {copied ? 'Copied' : label}
        </Button>
      </Tooltip>
    );
  }
  return (
    <Tooltip title={copied ? 'Copied' : title}>
      <IconButton
        size="small"
        onClick={() => void copy()}
        data-testid={testId ?? 'copy-button'}
        data-copied={copied || undefined}
        aria-label={title}
      >
        {icon}
      </IconButton>
    </Tooltip>
  );
}
