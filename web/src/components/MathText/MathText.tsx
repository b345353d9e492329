import { lazy, Suspense, useState } from 'react';
import { Box, Skeleton, Stack, Text, Textarea, VisuallyHidden } from '@mantine/core';
import classes from './MathText.module.css';

const MathRender = lazy(() => import('./math-render'));

// Whether a mouse button or finger is down: a blur caused by pressing on a button must not
// shrink the page before that button receives its click (the click would land elsewhere).
let pointerDown = false;
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', () => (pointerDown = true), true);
  document.addEventListener('pointerup', () => (pointerDown = false), true);
  document.addEventListener('pointercancel', () => (pointerDown = false), true);
}

/** Runs `close` once the current press is over (after its click), or at once without a press. */
function afterPress(close: () => void) {
  if (!pointerDown) return close();
  window.addEventListener('pointerup', () => setTimeout(close, 0), { once: true, capture: true });
}

export interface MathTextProps {
  /** Markdown with $…$ and $$…$$ formulas. */
  value: string;
  /**
   * Names the block for assistive technologies ("Instructions pour les élèves"...). Left out for text that is part of
   * a name of its own (a checkbox's label, decision 141): the drawn text is then read as it stands.
   */
  label?: string;
  /** When set, a click (or Enter) switches to a text area; leaving it hands the text back here. */
  onChange?: (value: string) => void;
  /** Shown in place of an empty editable block. */
  placeholder?: string;
  /** Said by assistive technologies while the formulas load. */
  loadingLabel?: string;
}

/**
 * Stands in for the text while KaTeX and the Markdown pipeline load (a few hundred ms the first
 * time): grey lines of about the text's height, never the raw source, whose `**` and `$\frac{1}{2}$`
 * a pupil would otherwise read first and then see jump.
 */
function MathPlaceholder({ value, label }: { value: string; label: string }) {
  const estimate = value.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 90)), 0);
  const lines = Math.min(8, Math.max(1, estimate));
  return (
    <Stack gap={8} role="status" aria-label={label} py={2} data-testid="math-placeholder">
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} height={14} width={i === lines - 1 && lines > 1 ? '60%' : '100%'} radius="sm" animate={false} />
      ))}
    </Stack>
  );
}

/**
 * The one rich-text block of the app (docs/product.md#style (§12)): Markdown with KaTeX formulas, sanitised.
 * Editable blocks show the rendering until clicked, then a text area; on blur the edit is
 * committed (onChange) and the block renders again.
 */
export function MathText({
  value,
  label,
  onChange,
  placeholder = 'Cliquez pour écrire…',
  loadingLabel = 'Chargement de l’énoncé',
}: MathTextProps) {
  const [draft, setDraft] = useState<string | null>(null);

  if (onChange && draft !== null) {
    return (
      <Textarea
        label={label}
        value={draft}
        rows={Math.min(20, Math.max(3, draft.split('\n').length + 1))}
        autoFocus
        onChange={(e) => setDraft(e.currentTarget.value)}
        onBlur={() => {
          const next = draft;
          if (next !== value) onChange(next);
          afterPress(() => setDraft(null));
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setDraft(null);
        }}
        description="Markdown et formules entre $…$ ou $$…$$. Quittez le champ pour valider, Échap pour annuler."
      />
    );
  }

  const rendered =
    value.trim() === '' ? (
      onChange ? (
        <Text c="gray.7" fs="italic">
          {placeholder}
        </Text>
      ) : null
    ) : (
      <Suspense fallback={<MathPlaceholder value={value} label={loadingLabel} />}>
        <MathRender value={value} />
      </Suspense>
    );

  if (!onChange) {
    return label === undefined ? (
      <Box className={classes.math}>{rendered}</Box>
    ) : (
      <Box className={classes.math} aria-label={label} role="group">
        {rendered}
      </Box>
    );
  }
  return (
    <Box
      className={`${classes.math} ${classes.editable}`}
      role="button"
      tabIndex={0}
      onClick={() => setDraft(value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          setDraft(value);
        }
      }}
    >
      {/* Named by its content, never by an aria-label: the name must hold the words a pupil sees
          (WCAG 2.5.3, axe label-content-name-mismatch), which says « Modifier : Commentaire… ». */}
      <VisuallyHidden component="span">Modifier : {label} </VisuallyHidden>
      {rendered}
    </Box>
  );
}
