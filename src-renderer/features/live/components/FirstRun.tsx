import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { serviceFilter } from '@renderer/api/service-query';
import { useServiceMutation } from '@renderer/api/use-service-query';
import { printRoute } from '@renderer/app/routes';

/** The demo camera a new user can add with one click: a moving test picture made by ffmpeg. */
const DEMO_STREAM = { name: 'demo', sources: ['ffmpeg:virtual?video=testsrc2&size=720#video=h264'] };

/** An empty grid guides a new user to a first camera instead of showing nothing. */
export function FirstRun() {
  const queryClient = useQueryClient();
  const addDemo = useServiceMutation('relay', 'addStream', {
    onSuccess: () => queryClient.invalidateQueries(serviceFilter('relay', 'listStreams')),
  });
  return (
    <Stack className="first-run" align="center" gap="sm" p="xl">
      <Title order={2}>No cameras yet</Title>
      <Text c="dimmed" ta="center" maw={520}>
        Add a camera by its RTSP, HTTP or ONVIF address, or start with the demo stream: a moving test picture the relay makes itself, to see
        every player mode work.
      </Text>
      <Group>
        <Button onClick={() => addDemo.mutate(DEMO_STREAM)} loading={addDemo.isPending}>
          Add the demo stream
        </Button>
        <Button component="a" href={printRoute({ section: 'streams' })} variant="default">
          Add a camera…
        </Button>
      </Group>
      {addDemo.isError ? (
        <Alert color="red" title="The demo stream was not added">
          {addDemo.error.message}
        </Alert>
      ) : null}
    </Stack>
  );
}
