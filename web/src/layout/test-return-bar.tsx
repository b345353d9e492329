import { useCallback } from 'react';
import { Anchor, Group, Paper, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { sessionKeys, useSessionState } from '../api/sessions';
import { paths } from '../config/paths';
import { useServerCountdown } from '../hooks/use-server-countdown';
import { FIRST_WARNING_SECONDS, formatRemaining } from '../pages/chapter/chapter-view';

/** The query parameter naming the timed test a page was opened from (history, viewer). */
export const TEST_PARAM = 'epreuve';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A link that keeps the pupil in their timed test: the page it opens shows the way back and the time. */
export const withTestReturn = (url: string, chapterId: string | null | undefined) =>
  chapterId ? `${url}${url.includes('?') ? '&' : '?'}${TEST_PARAM}=${encodeURIComponent(chapterId)}` : url;

/** The test this page was opened from, when its URL names one. */
export function useTestReturnChapter(): string | null {
  const [params] = useSearchParams();
  const id = params.get(TEST_PARAM);
  return id && UUID.test(id) ? id : null;
}

/**
 * On /history and /viewer opened from a running timed test: « Retour à l’épreuve » and the time
 * left, from the server's session state (the chapter page's own query, so both show one clock).
 */
export function TestReturnBar({ chapterId }: { chapterId: string }) {
  const client = useQueryClient();
  const query = useSessionState(chapterId);
  const refresh = useCallback(() => void client.invalidateQueries({ queryKey: sessionKeys.state(chapterId) }), [client, chapterId]);
  const remaining = useServerCountdown(query.data, query.dataUpdatedAt, refresh);
  if (!query.data?.timed || query.data.status === 'pending' || query.data.status === 'before') return null;
  return (
    <Paper
      withBorder
      p="xs"
      component="nav"
      aria-label="Épreuve en cours"
      style={{ position: 'sticky', top: 'var(--app-shell-header-offset, 0rem)', zIndex: 2 }}
      data-testid="test-return"
    >
      <Group justify="space-between" gap="sm">
        <Anchor component={Link} to={paths.chapter(chapterId)} fw={700}>
          <Group gap={4} component="span">
            <IconArrowLeft size={16} aria-hidden="true" />
            Retour à l’épreuve
          </Group>
        </Anchor>
        {remaining !== null && remaining > 0 ? (
          <Text
            fw={700}
            role="timer"
            aria-live="off"
            c={remaining <= FIRST_WARNING_SECONDS ? 'red.9' : undefined}
            data-testid="return-countdown"
          >
            Temps restant : {formatRemaining(remaining)}
          </Text>
        ) : (
          <Text fw={700}>L’épreuve est terminée.</Text>
        )}
      </Group>
    </Paper>
  );
}
