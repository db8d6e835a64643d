import { xmlEscape as x } from './soap';

/** What the media service tells a client about one stream (an ONVIF profile of the same name). */
export interface ProfileInfo {
  name: string;
  encoding: 'H264' | 'H265' | 'JPEG';
  width: number;
  height: number;
}

const time = (d: Date) =>
  `<tt:Time><tt:Hour>${d.getUTCHours()}</tt:Hour><tt:Minute>${d.getUTCMinutes()}</tt:Minute><tt:Second>${d.getUTCSeconds()}</tt:Second></tt:Time><tt:Date><tt:Year>${d.getUTCFullYear()}</tt:Year><tt:Month>${d.getUTCMonth() + 1}</tt:Month><tt:Day>${d.getUTCDate()}</tt:Day></tt:Date>`;

export function systemDateAndTime(now: Date): string {
  return `<tds:GetSystemDateAndTimeResponse><tds:SystemDateAndTime><tt:DateTimeType>NTP</tt:DateTimeType><tt:DaylightSavings>false</tt:DaylightSavings><tt:TimeZone><tt:TZ>UTC0</tt:TZ></tt:TimeZone><tt:UTCDateTime>${time(now)}</tt:UTCDateTime></tds:SystemDateAndTime></tds:GetSystemDateAndTimeResponse>`;
}

export function capabilities(base: string): string {
  return `<tds:GetCapabilitiesResponse><tds:Capabilities><tt:Device><tt:XAddr>${x(base)}/onvif/device_service</tt:XAddr></tt:Device><tt:Media><tt:XAddr>${x(base)}/onvif/media_service</tt:XAddr><tt:StreamingCapabilities><tt:RTPMulticast>false</tt:RTPMulticast><tt:RTP_TCP>false</tt:RTP_TCP><tt:RTP_RTSP_TCP>true</tt:RTP_RTSP_TCP></tt:StreamingCapabilities></tt:Media></tds:Capabilities></tds:GetCapabilitiesResponse>`;
}

export function services(base: string, withCapabilities: boolean): string {
  const service = (namespace: string, path: string, caps: string) =>
    `<tds:Service><tds:Namespace>${namespace}</tds:Namespace><tds:XAddr>${x(base)}${path}</tds:XAddr>${withCapabilities ? `<tds:Capabilities>${caps}</tds:Capabilities>` : ''}<tds:Version><tt:Major>2</tt:Major><tt:Minor>60</tt:Minor></tds:Version></tds:Service>`;
  return `<tds:GetServicesResponse>${service('http://www.onvif.org/ver10/device/wsdl', '/onvif/device_service', '<tds:Capabilities><tds:Network/><tds:Security/><tds:System/></tds:Capabilities>')}${service('http://www.onvif.org/ver10/media/wsdl', '/onvif/media_service', mediaCapabilities())}</tds:GetServicesResponse>`;
}

function mediaCapabilities(): string {
  return `<trt:Capabilities SnapshotUri="true" Rotation="false" VideoSourceMode="false" OSD="false"><trt:ProfileCapabilities MaximumNumberOfProfiles="100"/><trt:StreamingCapabilities RTPMulticast="false" RTP_TCP="false" RTP_RTSP_TCP="true" NonAggregateControl="false" NoRTSPStreaming="false"/></trt:Capabilities>`;
}

export const serviceCapabilities = () => `<trt:GetServiceCapabilitiesResponse>${mediaCapabilities()}</trt:GetServiceCapabilitiesResponse>`;

export function deviceInformation(model: string, firmware: string, serial: string): string {
  return `<tds:GetDeviceInformationResponse><tds:Manufacturer>Relay Console</tds:Manufacturer><tds:Model>${x(model)}</tds:Model><tds:FirmwareVersion>${x(firmware)}</tds:FirmwareVersion><tds:SerialNumber>${x(serial)}</tds:SerialNumber><tds:HardwareId>relay</tds:HardwareId></tds:GetDeviceInformationResponse>`;
}

export function scopes(name: string): string {
  const items = [
    `onvif://www.onvif.org/name/${encodeURIComponent(name)}`,
    'onvif://www.onvif.org/Profile/Streaming',
    'onvif://www.onvif.org/type/Network_Video_Transmitter',
    'onvif://www.onvif.org/hardware/relay',
  ];
  return `<tds:GetScopesResponse>${items.map((item) => `<tds:Scopes><tt:ScopeDef>Fixed</tt:ScopeDef><tt:ScopeItem>${x(item)}</tt:ScopeItem></tds:Scopes>`).join('')}</tds:GetScopesResponse>`;
}

function videoSourceConfiguration(tag: string, p: ProfileInfo): string {
  return `<tt:${tag} token="${x(p.name)}"><tt:Name>${x(p.name)}</tt:Name><tt:UseCount>1</tt:UseCount><tt:SourceToken>${x(p.name)}</tt:SourceToken><tt:Bounds x="0" y="0" width="${p.width}" height="${p.height}"/></tt:${tag}>`;
}

function videoEncoderConfiguration(tag: string, p: ProfileInfo): string {
  const codecPart = p.encoding === 'H264' ? '<tt:H264><tt:GovLength>25</tt:GovLength><tt:H264Profile>Main</tt:H264Profile></tt:H264>' : '';
  return `<tt:${tag} token="${x(p.name)}"><tt:Name>${x(p.name)}</tt:Name><tt:UseCount>1</tt:UseCount><tt:Encoding>${p.encoding}</tt:Encoding><tt:Resolution><tt:Width>${p.width}</tt:Width><tt:Height>${p.height}</tt:Height></tt:Resolution><tt:Quality>5</tt:Quality><tt:RateControl><tt:FrameRateLimit>30</tt:FrameRateLimit><tt:EncodingInterval>1</tt:EncodingInterval><tt:BitrateLimit>8192</tt:BitrateLimit></tt:RateControl>${codecPart}<tt:Multicast><tt:Address><tt:Type>IPv4</tt:Type><tt:IPv4Address>0.0.0.0</tt:IPv4Address></tt:Address><tt:Port>0</tt:Port><tt:TTL>0</tt:TTL><tt:AutoStart>false</tt:AutoStart></tt:Multicast><tt:SessionTimeout>PT60S</tt:SessionTimeout></tt:${tag}>`;
}

function profile(tag: string, p: ProfileInfo): string {
  return `<trt:${tag} token="${x(p.name)}" fixed="true"><tt:Name>${x(p.name)}</tt:Name>${videoSourceConfiguration('VideoSourceConfiguration', p)}${videoEncoderConfiguration('VideoEncoderConfiguration', p)}</trt:${tag}>`;
}

export const profiles = (list: ProfileInfo[]) =>
  `<trt:GetProfilesResponse>${list.map((p) => profile('Profiles', p)).join('')}</trt:GetProfilesResponse>`;
export const oneProfile = (p: ProfileInfo) => `<trt:GetProfileResponse>${profile('Profile', p)}</trt:GetProfileResponse>`;

export function videoSources(list: ProfileInfo[]): string {
  return `<trt:GetVideoSourcesResponse>${list.map((p) => `<trt:VideoSources token="${x(p.name)}"><tt:Framerate>25</tt:Framerate><tt:Resolution><tt:Width>${p.width}</tt:Width><tt:Height>${p.height}</tt:Height></tt:Resolution></trt:VideoSources>`).join('')}</trt:GetVideoSourcesResponse>`;
}

export const videoSourceConfigurations = (list: ProfileInfo[]) =>
  `<trt:GetVideoSourceConfigurationsResponse>${list.map((p) => videoSourceConfiguration('Configurations', p)).join('')}</trt:GetVideoSourceConfigurationsResponse>`;
export const videoEncoderConfigurations = (list: ProfileInfo[]) =>
  `<trt:GetVideoEncoderConfigurationsResponse>${list.map((p) => videoEncoderConfiguration('Configurations', p)).join('')}</trt:GetVideoEncoderConfigurationsResponse>`;

export function mediaUri(kind: 'GetStreamUriResponse' | 'GetSnapshotUriResponse', uri: string): string {
  return `<trt:${kind}><trt:MediaUri><tt:Uri>${x(uri)}</tt:Uri><tt:InvalidAfterConnect>false</tt:InvalidAfterConnect><tt:InvalidAfterReboot>false</tt:InvalidAfterReboot><tt:Timeout>PT0S</tt:Timeout></trt:MediaUri></trt:${kind}>`;
}

/** Operations a client may call that have nothing to report here. */
export const EMPTY_ANSWERS: Record<string, string> = {
  GetNetworkInterfaces: '<tds:GetNetworkInterfacesResponse/>',
  GetNetworkProtocols: '<tds:GetNetworkProtocolsResponse/>',
  GetDNS: '<tds:GetDNSResponse><tds:DNSInformation><tt:FromDHCP>false</tt:FromDHCP></tds:DNSInformation></tds:GetDNSResponse>',
  GetNTP: '<tds:GetNTPResponse><tds:NTPInformation><tt:FromDHCP>false</tt:FromDHCP></tds:NTPInformation></tds:GetNTPResponse>',
  GetHostname:
    '<tds:GetHostnameResponse><tds:HostnameInformation><tt:FromDHCP>false</tt:FromDHCP></tds:HostnameInformation></tds:GetHostnameResponse>',
  GetNetworkDefaultGateway: '<tds:GetNetworkDefaultGatewayResponse><tds:NetworkGateway/></tds:GetNetworkDefaultGatewayResponse>',
  GetDiscoveryMode: '<tds:GetDiscoveryModeResponse><tds:DiscoveryMode>Discoverable</tds:DiscoveryMode></tds:GetDiscoveryModeResponse>',
  SetSystemDateAndTime: '<tds:SetSystemDateAndTimeResponse/>',
  GetAudioSources: '<trt:GetAudioSourcesResponse/>',
  GetAudioSourceConfigurations: '<trt:GetAudioSourceConfigurationsResponse/>',
  GetAudioEncoderConfigurations: '<trt:GetAudioEncoderConfigurationsResponse/>',
};
