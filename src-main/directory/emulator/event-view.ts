import type { EventInstance } from './event-instances';
import { formatWallTime, type TimeZones } from './time-zones';

export interface EventOwner {
  id: string;
  userPrincipalName: string;
  displayName: string;
}

/** How to write start/end: in UTC unless the caller's `Prefer: outlook.timezone` names a zone. */
export interface ViewZone {
  /** The name echoed in start.timeZone (as the caller wrote it). */
  name: string;
  /** The IANA zone used for the conversion. */
  zone: string;
}

export const UTC_VIEW: ViewZone = { name: 'UTC', zone: 'UTC' };

function bodyPreview(body: { contentType: string; content: string }): string {
  const text = body.contentType === 'html' ? body.content.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ') : body.content;
  return text.replace(/\s+/g, ' ').trim().slice(0, 255);
}

/** An event as Graph returns it from /events, /calendarView and calendarView/delta. */
export function renderEvent(instance: EventInstance, owner: EventOwner, view: ViewZone, zones: TimeZones): Record<string, unknown> {
  const { props, master } = instance;
  const at = (ms: number) => ({ dateTime: formatWallTime(zones.toWall(ms, view.zone)), timeZone: view.name });
  const address = owner.userPrincipalName;
  return {
    '@odata.type': '#microsoft.graph.event',
    '@odata.etag': `W/"${instance.changeKey}"`,
    id: instance.id,
    createdDateTime: master.createdDateTime,
    lastModifiedDateTime: instance.lastModifiedDateTime,
    changeKey: instance.changeKey,
    categories: props.categories,
    transactionId: props.transactionId,
    originalStartTimeZone: master.props.start.timeZone,
    originalEndTimeZone: master.props.end.timeZone,
    iCalUId: master.iCalUId,
    uid: master.iCalUId,
    reminderMinutesBeforeStart: props.reminderMinutesBeforeStart,
    isReminderOn: props.isReminderOn,
    hasAttachments: false,
    subject: props.subject,
    bodyPreview: bodyPreview(props.body),
    importance: props.importance,
    sensitivity: props.sensitivity,
    isAllDay: props.isAllDay,
    isCancelled: false,
    isOrganizer: true,
    responseRequested: props.responseRequested,
    seriesMasterId: instance.type === 'occurrence' || instance.type === 'exception' ? master.id : null,
    showAs: props.showAs,
    type: instance.type,
    webLink: `https://outlook.office365.com/owa/?itemid=${encodeURIComponent(instance.id)}&exvsurl=1&path=/calendar/item`,
    onlineMeetingUrl: null,
    isOnlineMeeting: props.isOnlineMeeting,
    onlineMeetingProvider: props.onlineMeetingProvider,
    allowNewTimeProposals: props.allowNewTimeProposals,
    isDraft: false,
    hideAttendees: props.hideAttendees,
    ...(instance.originalStart ? { originalStart: instance.originalStart } : {}),
    responseStatus: { response: 'organizer', time: '0001-01-01T00:00:00Z' },
    body: props.body,
    start: at(instance.startUtc),
    end: at(instance.endUtc),
    location: props.location,
    locations: props.locations,
    recurrence: instance.type === 'seriesMaster' ? props.recurrence : null,
    attendees: props.attendees,
    organizer: { emailAddress: { name: owner.displayName, address } },
    onlineMeeting: null,
  };
}

/** A deletion (or a change outside the window) as calendarView/delta reports it. */
export function removedEntry(id: string): Record<string, unknown> {
  return { '@odata.type': '#microsoft.graph.event', id, '@removed': { reason: 'deleted' } };
}
