import { Text } from '@mantine/core';
import { formatSitting, roomText, type CenterDetails } from '@olympe/contract';
import './center-details.css';

/** When the sitting is, in words (Paris time), or that the centre has not said yet. */
export const sittingText = (details: Pick<CenterDetails, 'sittingAt'>) =>
  details.sittingAt ? `Le ${formatSitting(details.sittingAt)}` : 'Date à préciser par le centre';

/**
 * Decision 59: where and when to come and what to bring, as the centre set them (or their defaults).
 * Used on the centre panel, in the map popup and in the registration confirmation.
 */
export function CenterDetailsList({ details, compact = false }: { details: CenterDetails; compact?: boolean }) {
  const size = compact ? 'sm' : undefined;
  return (
    <dl className="center-details">
      <dt>
        <Text span fw={600} size={size}>
          Date et heure
        </Text>
      </dt>
      <dd>
        <Text span size={size}>
          {sittingText(details)}
        </Text>
      </dd>
      <dt>
        <Text span fw={600} size={size}>
          Adresse
        </Text>
      </dt>
      <dd>
        <Text span size={size}>
          {details.address || 'Adresse à préciser par le centre'}
          {details.room ? ` — ${roomText(details.room)}` : ''}
        </Text>
      </dd>
      {!compact && (
        <>
          <dt>
            <Text span fw={600}>
              À apporter
            </Text>
          </dt>
          <dd>
            <Text span style={{ whiteSpace: 'pre-wrap' }}>
              {details.bring}
            </Text>
          </dd>
        </>
      )}
    </dl>
  );
}
